rootProject.name = "Demo"
include(
    ":app",
    ":core:ui",
)
// include(":legacy")
/* include(":old") /* nested */ include(":older") */
