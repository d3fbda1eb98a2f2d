package com.fixthis.demo.ui.navigation

import androidx.annotation.StringRes
import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.outlined.BookmarkBorder
import androidx.compose.material.icons.outlined.Explore
import androidx.compose.material.icons.outlined.Person
import androidx.compose.material3.Icon
import androidx.compose.material3.NavigationBar
import androidx.compose.material3.NavigationBarItem
import androidx.compose.material3.Text
import androidx.compose.runtime.Composable
import androidx.compose.ui.Modifier
import androidx.compose.ui.graphics.vector.ImageVector
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.res.stringResource
import com.fixthis.demo.R

enum class TopLevelTab(@StringRes val labelRes: Int, val icon: ImageVector) {
    Explore(R.string.tab_explore, Icons.Outlined.Explore),
    Saved(R.string.tab_saved, Icons.Outlined.BookmarkBorder),
    Profile(R.string.tab_profile, Icons.Outlined.Person),
}

@Composable
fun TrailheadBottomBar(
    selected: TopLevelTab,
    onSelect: (TopLevelTab) -> Unit,
    modifier: Modifier = Modifier,
) {
    NavigationBar(modifier = modifier.testTag("bottom_nav")) {
        TopLevelTab.entries.forEach { tab ->
            NavigationBarItem(
                selected = tab == selected,
                onClick = { onSelect(tab) },
                icon = { Icon(tab.icon, contentDescription = null) },
                label = { Text(stringResource(tab.labelRes)) },
                modifier = Modifier.testTag("tab_${tab.name.lowercase()}"),
            )
        }
    }
}
