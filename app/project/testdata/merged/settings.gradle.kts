enableFeaturePreview("TYPESAFE_PROJECT_ACCESSORS")
include(":app", ":ui-common")
