package com.example.demo

class HomeTest {
    fun showsWelcome() {
        rule.onNodeWithText("Welcome back").assertExists()
    }
}
