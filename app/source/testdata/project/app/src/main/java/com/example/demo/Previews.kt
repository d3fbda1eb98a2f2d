package com.example.demo

@Preview
@Composable
fun HomePreview() {
    Text("Welcome back")
}
