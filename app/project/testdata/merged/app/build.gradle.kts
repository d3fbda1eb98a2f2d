plugins {
    id("com.android.application")
}

val env = mapOf("NDK" to "26.1")

android {
    ndkVersion = "${env["NDK"]}"
    namespace = "io.example.merged"
    defaultConfig {
        applicationId = "io.example.merged"
        // Written inside defaultConfig: Kotlin lambdas see the android extension.
        buildTypes {
            debug {
                applicationIdSuffix = ".dev"
            }
        }
    }
}

dependencies {
    implementation(projects.uiCommon)
}
