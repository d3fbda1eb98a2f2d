package com.fixthis.demo.core.ui.component

import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.automirrored.filled.ArrowBack
import androidx.compose.material3.Icon
import androidx.compose.material3.IconButton
import androidx.compose.material3.IconButtonDefaults
import androidx.compose.runtime.Composable
import androidx.compose.ui.Modifier
import androidx.compose.ui.graphics.Color
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.res.stringResource
import com.fixthis.demo.core.ui.R

/**
 * The back arrow every secondary screen shows in its top-start corner. It
 * carries one test tag everywhere so UI tests can go back the same way on any
 * screen. [containerColor] lets screens with a photo behind the button give it
 * a translucent backing.
 */
@Composable
fun BackButton(
    onClick: () -> Unit,
    modifier: Modifier = Modifier,
    containerColor: Color = Color.Transparent,
) {
    IconButton(
        onClick = onClick,
        modifier = modifier.testTag("back_button"),
        colors = IconButtonDefaults.iconButtonColors(containerColor = containerColor),
    ) {
        Icon(
            imageVector = Icons.AutoMirrored.Filled.ArrowBack,
            contentDescription = stringResource(R.string.core_ui_back),
        )
    }
}
