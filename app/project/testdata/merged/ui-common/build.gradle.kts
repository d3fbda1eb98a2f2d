plugins {
    id("com.android.library")
}
android { namespace = "io.example.common" }
