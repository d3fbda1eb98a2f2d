package com.example.ui

@Composable
fun PrimaryButton(text: String, onClick: () -> Unit, modifier: Modifier = Modifier) {
    Button(
        onClick = onClick,
        modifier = modifier.testTag("comp:PrimaryButton:root"),
    ) {
        Text(text)
    }
}
