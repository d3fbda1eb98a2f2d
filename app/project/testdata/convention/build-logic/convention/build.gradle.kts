plugins {
    `kotlin-dsl`
}

gradlePlugin {
    plugins {
        register("androidApplication") {
            id = libs.plugins.acme.android.application.get().pluginId
            implementationClass = "AndroidApplicationConventionPlugin"
        }
        register("androidLibrary") {
            id = "acme.android.library"
            implementationClass = "AndroidLibraryConventionPlugin"
        }
    }
}
