package com.fixthis.demo.core.ui.theme

import androidx.compose.material3.Typography

// The Material 3 type scale with the platform font; screens pick roles
// (headlineSmall, titleMedium, …) rather than sizes.
internal val TrailheadTypography = Typography()
