package com.example.demo

import androidx.compose.runtime.Composable
import com.example.ui.PrimaryButton

/* A header comment with Text("not code") /* nested Text("still comment") */ Text("also comment") */
@Composable
fun HomeScreen(userName: String) {
    Column {
        Text("Welcome back")
        Text("Hello, ${userName.trim { it == ' ' }}!")
        Text(text = stringResource(id = R.string.greeting))
        Icon(
            imageVector = Icons.Default.Settings,
            contentDescription = stringResource(R.string.cd_settings),
        )
        Text(stringResource(R.string.items_count, cart.size))
        PrimaryButton(text = "Save", onClick = {})
        PrimaryButton(text = "Cancel", onClick = {})
        val banner = """Raw "quoted" Text("fake") ${"nested"}"""
        Box(Modifier.testTag("screen:HomeScreen:root").semantics { role = Role.Image }) {
            ProfileCard(name = userName)
        }
    }
}

@Composable
private fun ProfileCard(name: String) = Card(modifier = Modifier.testTag(ProfileTags.CARD)) {
    Text(name, style = MaterialTheme.typography.titleMedium)
    Text('"'.toString() + "Edit profile")
}

object ProfileTags {
    const val CARD = "profile_card"
}
