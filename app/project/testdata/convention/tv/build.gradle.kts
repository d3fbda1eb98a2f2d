plugins {
    id("acme.tv.application")
}
android {
    namespace = "com.acme.tv"
    defaultConfig { applicationId = "com.acme.tv" }
}
