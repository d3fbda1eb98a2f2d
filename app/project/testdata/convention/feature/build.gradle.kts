plugins {
    id("acme.android.library")
}
android { namespace = "com.acme.feature" }
