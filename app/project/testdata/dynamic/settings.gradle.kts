include("mobile")
project(":mobile").projectDir = file("apps/main")
