plugins {
    id("com.android.application")
}

val branch = providers.exec { commandLine("git", "branch", "--show-current") }.standardOutput.asText

android {
    namespace = "io.example.dyn"
    defaultConfig {
        applicationId = "io.example.dyn"
        versionName = "${project.version}"
    }
    buildTypes {
        debug {
            if (branch.get() == "main") {
                applicationIdSuffix = ".debug"
            } else {
                applicationIdSuffix = ".debug.${branch.get()}"
            }
        }
    }
}
