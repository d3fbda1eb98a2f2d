pluginManagement {
    includeBuild("build-logic")
}
rootProject.name = "Convention"
include(":phone")
include(":tv")
include(":feature")
