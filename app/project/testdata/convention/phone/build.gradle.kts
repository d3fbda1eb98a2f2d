plugins {
    alias(libs.plugins.acme.android.application)
}
android {
    namespace = "com.acme.phone"
    defaultConfig { applicationId = "com.acme" }
}
