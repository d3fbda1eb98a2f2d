package com.fixthis.demo

import android.content.Context
import android.content.Intent
import android.os.Bundle
import androidx.activity.ComponentActivity
import androidx.activity.compose.setContent
import androidx.activity.enableEdgeToEdge
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.safeDrawingPadding
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.Surface
import androidx.compose.runtime.Composable
import androidx.compose.runtime.LaunchedEffect
import androidx.compose.ui.ExperimentalComposeUiApi
import androidx.compose.ui.Modifier
import androidx.compose.ui.platform.LocalContext
import androidx.compose.ui.semantics.semantics
import androidx.compose.ui.semantics.testTagsAsResourceId
import androidx.lifecycle.viewmodel.compose.viewModel
import androidx.navigation.NavHostController
import androidx.navigation.compose.NavHost
import androidx.navigation.compose.composable
import androidx.navigation.compose.rememberNavController
import com.fixthis.demo.core.ui.theme.TrailheadTheme
import com.fixthis.demo.data.InMemoryTrailRepository
import com.fixthis.demo.data.Trail
import com.fixthis.demo.ui.detail.TrailDetailScreen
import com.fixthis.demo.ui.navigation.TopLevelTab
import com.fixthis.demo.ui.newtrail.NewTrailForm
import com.fixthis.demo.ui.newtrail.NewTrailInput
import com.fixthis.demo.ui.signin.SignInScreen
import com.fixthis.demo.ui.trails.TrailListScreen
import com.fixthis.demo.ui.trails.TrailsViewModel
import java.util.UUID

class MainActivity : ComponentActivity() {
    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        enableEdgeToEdge()
        setContent {
            TrailheadTheme {
                Surface(modifier = Modifier.fillMaxSize(), color = MaterialTheme.colorScheme.surface) {
                    TrailheadNavHost()
                }
            }
        }
    }
}

private object Routes {
    const val TRAILS = "trails"
    const val DETAIL = "trails/{trailId}"
    const val NEW_TRAIL = "new_trail"
    const val SIGN_IN = "signin"

    fun detail(trailId: String) = "trails/$trailId"
}

@Composable
private fun TrailheadNavHost(navController: NavHostController = rememberNavController()) {
    val context = LocalContext.current
    val trails: TrailsViewModel = viewModel { TrailsViewModel(InMemoryTrailRepository()) }

    NavHost(navController = navController, startDestination = Routes.TRAILS) {
        composable(Routes.TRAILS) {
            TrailListScreen(
                viewModel = trails,
                onTrailClick = { navController.navigate(Routes.detail(it.id)) },
                onNewTrail = { navController.navigate(Routes.NEW_TRAIL) },
                onAccountClick = { navController.navigate(Routes.SIGN_IN) },
                onTabSelected = { tab ->
                    if (tab == TopLevelTab.Profile) navController.navigate(Routes.SIGN_IN)
                },
                modifier = Modifier.exposeTestTags(),
            )
        }
        composable(Routes.NEW_TRAIL) {
            NewTrailForm(
                initialRegion = trails.defaultRegion,
                onClose = { navController.popBackStack() },
                onSave = { input ->
                    trails.add(input.toTrail())
                    navController.popBackStack()
                },
                modifier = Modifier
                    .safeDrawingPadding()
                    .exposeTestTags(),
            )
        }
        composable(Routes.DETAIL) { entry ->
            val trail = entry.arguments?.getString("trailId")?.let(trails::trail)
            if (trail == null) {
                // Deleted while the screen sat in the back stack.
                LaunchedEffect(Unit) { navController.popBackStack() }
                return@composable
            }
            TrailDetailScreen(
                trail = trail,
                onBack = { navController.popBackStack() },
                onShare = { context.shareTrail(trail) },
                onDelete = {
                    trails.delete(trail.id)
                    navController.popBackStack(Routes.TRAILS, inclusive = false)
                },
                onSave = { trails.toggleFavorite(trail.id) },
                onStartHike = { /* Hike recording ships with the tracking module. */ },
            )
        }
        composable(Routes.SIGN_IN) {
            SignInScreen(
                onBack = { navController.popBackStack() },
                onOpenSettings = { context.startActivity(Intent(context, SettingsActivity::class.java)) },
                onSignIn = { _, _, _ -> navController.popBackStack() },
                onForgotPassword = {},
                onCreateAccount = {},
                modifier = Modifier
                    .safeDrawingPadding()
                    .exposeTestTags(),
            )
        }
    }
}

/**
 * The end-to-end suite drives the list, the new-trail form and sign-in with
 * UI Automator, which only sees test tags as resource ids when asked to.
 */
@OptIn(ExperimentalComposeUiApi::class)
private fun Modifier.exposeTestTags(): Modifier = semantics { testTagsAsResourceId = true }

private fun NewTrailInput.toTrail() = Trail(
    id = UUID.randomUUID().toString(),
    name = name,
    region = region,
    distanceKm = distanceKm ?: 0.0,
    elevationGainM = elevationGainM ?: 0,
    durationMinutes = 0,
    difficulty = difficulty,
    rating = 0.0,
    description = notes,
    photoUrl = "",
)

private fun Context.shareTrail(trail: Trail) {
    val send = Intent(Intent.ACTION_SEND)
        .setType("text/plain")
        .putExtra(Intent.EXTRA_TEXT, getString(R.string.share_trail_text, trail.name, trail.region))
    startActivity(Intent.createChooser(send, null))
}
