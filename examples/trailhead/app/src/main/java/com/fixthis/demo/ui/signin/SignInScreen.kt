package com.fixthis.demo.ui.signin

import androidx.compose.foundation.background
import androidx.compose.foundation.layout.Arrangement
import androidx.compose.foundation.layout.Box
import androidx.compose.foundation.layout.Column
import androidx.compose.foundation.layout.Row
import androidx.compose.foundation.layout.Spacer
import androidx.compose.foundation.layout.fillMaxSize
import androidx.compose.foundation.layout.fillMaxWidth
import androidx.compose.foundation.layout.height
import androidx.compose.foundation.layout.padding
import androidx.compose.foundation.layout.size
import androidx.compose.foundation.shape.RoundedCornerShape
import androidx.compose.foundation.text.KeyboardOptions
import androidx.compose.material.icons.Icons
import androidx.compose.material.icons.outlined.Settings
import androidx.compose.material.icons.outlined.Terrain
import androidx.compose.material3.Button
import androidx.compose.material3.Icon
import androidx.compose.material3.IconButton
import androidx.compose.material3.MaterialTheme
import androidx.compose.material3.OutlinedTextField
import androidx.compose.material3.Text
import androidx.compose.material3.TextButton
import androidx.compose.runtime.Composable
import androidx.compose.runtime.getValue
import androidx.compose.runtime.mutableStateOf
import androidx.compose.runtime.saveable.rememberSaveable
import androidx.compose.runtime.setValue
import androidx.compose.ui.Alignment
import androidx.compose.ui.Modifier
import androidx.compose.ui.platform.testTag
import androidx.compose.ui.res.stringResource
import androidx.compose.ui.text.input.ImeAction
import androidx.compose.ui.text.input.KeyboardType
import androidx.compose.ui.text.input.PasswordVisualTransformation
import androidx.compose.ui.unit.dp
import com.fixthis.demo.R
import com.fixthis.demo.core.ui.component.BackButton
import com.fixthis.demo.core.ui.component.CheckboxRow

/** Test tags of the sign-in form, shared with its UI tests. */
object SignInTags {
    const val SETTINGS = "settings_button"
    const val EMAIL = "email_field"
    const val PASSWORD = "password_field"
    const val REMEMBER_ME = "remember_me"
    const val SIGN_IN = "sign_in_button"
    const val FORGOT_PASSWORD = "forgot_password"
    const val CREATE_ACCOUNT = "create_account"
}

@Composable
fun SignInScreen(
    onBack: () -> Unit,
    onOpenSettings: () -> Unit,
    onSignIn: (email: String, password: String, remember: Boolean) -> Unit,
    onForgotPassword: () -> Unit,
    onCreateAccount: () -> Unit,
    modifier: Modifier = Modifier,
) {
    var email by rememberSaveable { mutableStateOf("") }
    var password by rememberSaveable { mutableStateOf("") }
    var rememberMe by rememberSaveable { mutableStateOf(true) }

    Column(modifier = modifier.fillMaxSize()) {
        Row(
            modifier = Modifier
                .fillMaxWidth()
                .height(64.dp)
                .padding(horizontal = 4.dp),
            verticalAlignment = Alignment.CenterVertically,
        ) {
            BackButton(onClick = onBack)
            Spacer(modifier = Modifier.weight(1f))
            IconButton(onClick = onOpenSettings, modifier = Modifier.testTag(SignInTags.SETTINGS)) {
                Icon(Icons.Outlined.Settings, contentDescription = stringResource(R.string.settings_title))
            }
        }
        Column(
            modifier = Modifier
                .weight(1f)
                .padding(start = 24.dp, top = 8.dp, end = 24.dp, bottom = 24.dp),
            verticalArrangement = Arrangement.spacedBy(16.dp),
        ) {
            Box(
                modifier = Modifier
                    .size(64.dp)
                    .background(MaterialTheme.colorScheme.primaryContainer, RoundedCornerShape(20.dp)),
                contentAlignment = Alignment.Center,
            ) {
                Icon(
                    Icons.Outlined.Terrain,
                    contentDescription = null,
                    tint = MaterialTheme.colorScheme.onPrimaryContainer,
                    modifier = Modifier.size(36.dp),
                )
            }
            Text(
                text = stringResource(R.string.sign_in_welcome),
                style = MaterialTheme.typography.headlineMedium,
            )
            Text(
                text = "Sign in to sync your saved trails and offline maps across devices.",
                style = MaterialTheme.typography.bodyLarge,
                color = MaterialTheme.colorScheme.onSurfaceVariant,
            )
            Spacer(modifier = Modifier.height(8.dp))
            OutlinedTextField(
                value = email,
                onValueChange = { email = it },
                label = { Text("Email") },
                singleLine = true,
                keyboardOptions = KeyboardOptions(keyboardType = KeyboardType.Email, imeAction = ImeAction.Next),
                modifier = Modifier
                    .fillMaxWidth()
                    .testTag(SignInTags.EMAIL),
            )
            OutlinedTextField(
                value = password,
                onValueChange = { password = it },
                label = { Text("Password") },
                singleLine = true,
                visualTransformation = PasswordVisualTransformation(),
                keyboardOptions = KeyboardOptions(keyboardType = KeyboardType.Password, imeAction = ImeAction.Done),
                modifier = Modifier
                    .fillMaxWidth()
                    .testTag(SignInTags.PASSWORD),
            )
            CheckboxRow(
                label = stringResource(R.string.sign_in_keep_signed_in),
                checked = rememberMe,
                onCheckedChange = { rememberMe = it },
                modifier = Modifier.testTag(SignInTags.REMEMBER_ME),
            )
            Button(
                onClick = { onSignIn(email.trim(), password, rememberMe) },
                modifier = Modifier
                    .fillMaxWidth()
                    .height(52.dp)
                    .testTag(SignInTags.SIGN_IN),
            ) {
                Text(stringResource(R.string.sign_in_action))
            }
            TextButton(
                onClick = onForgotPassword,
                modifier = Modifier
                    .fillMaxWidth()
                    .testTag(SignInTags.FORGOT_PASSWORD),
            ) {
                Text("Forgot password?")
            }
            Spacer(modifier = Modifier.weight(1f))
            Row(
                modifier = Modifier.fillMaxWidth(),
                horizontalArrangement = Arrangement.spacedBy(4.dp, Alignment.CenterHorizontally),
                verticalAlignment = Alignment.CenterVertically,
            ) {
                Text(
                    text = "New to Trailhead?",
                    style = MaterialTheme.typography.bodyMedium,
                    color = MaterialTheme.colorScheme.onSurfaceVariant,
                )
                TextButton(onClick = onCreateAccount, modifier = Modifier.testTag(SignInTags.CREATE_ACCOUNT)) {
                    Text(stringResource(R.string.sign_in_create_account))
                }
            }
        }
    }
}
