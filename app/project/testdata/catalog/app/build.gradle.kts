plugins {
    alias(libs.plugins.android.application)
}

android {
    namespace = "com.example.catalog.app" // differs from the applicationId
    defaultConfig {
        applicationId = "com.example.catalog"
        minSdk = libs.versions.minSdk.get().toInt()
        versionCode = 7
        versionName = "1.7"
    }
    buildTypes {
        getByName("debug") {
            applicationIdSuffix = ".debug"
        }
        release {
            applicationIdSuffix = ".release-not-used"
        }
    }
}
