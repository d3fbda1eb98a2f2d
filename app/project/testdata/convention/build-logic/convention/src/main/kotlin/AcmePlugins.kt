object AcmePlugins {
    object Library {
        const val tv = "acme.library.tv"
    }
    object App {
        const val tv = "acme.tv.application"
    }
}
