import org.gradle.api.Plugin
import org.gradle.api.Project

class AndroidLibraryConventionPlugin : Plugin<Project> {
    override fun apply(target: Project) {
        // Reacting to the app plugin is not applying it.
        pluginManager.withPlugin("com.android.application") { }
        pluginManager.apply("com.android.library")
    }
}
