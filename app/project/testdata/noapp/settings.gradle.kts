include(":lib")
