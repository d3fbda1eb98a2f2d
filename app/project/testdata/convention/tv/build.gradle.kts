plugins {
    id(AcmePlugins.App.tv)
}
android {
    namespace = "com.acme.tv"
    defaultConfig { applicationId = "com.acme.tv" }
}
