package com.example.views

class ProfileFragmentTest {
    fun saveShowsToast() {
        onView(withId(R.id.save_button)).perform(click())
        onView(withText("Saved")).check(matches(isDisplayed()))
    }
}
