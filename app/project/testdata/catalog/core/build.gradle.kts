plugins {
    alias(libs.plugins.android.library)
}
android { namespace = "com.example.catalog.core" }
