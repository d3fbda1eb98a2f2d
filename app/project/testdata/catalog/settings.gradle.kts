rootProject.name = "Catalog"
// include(":old") is commented out and must not count
include(
    ":app",
    ":core",
)
