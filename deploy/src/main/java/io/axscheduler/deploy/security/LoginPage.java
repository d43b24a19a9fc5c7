package io.axscheduler.deploy.security;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The console's sign-in page, in the console's look and languages: the password form, and the provider's link when
 * {@code ax.oidc.client-id} is set. Spring Security handles the form's POST; a failed sign-in comes back with
 * {@code ?error} ({@code ?error=sso} through the provider), a sign-out with {@code ?logout}. A locked user is told the same as a wrong password: the page does
 * not say which names exist.
 */
@Controller
class LoginPage {

    private final OidcSettings oidc;

    LoginPage(OidcSettings oidc) {
        this.oidc = oidc;
    }

    @GetMapping("/login")
    String login(
            @RequestParam(name = "error", required = false) String error,
            @RequestParam(name = "logout", required = false) String logout,
            Model model) {
        model.addAttribute("failed", error != null && !error.equals("sso"));
        model.addAttribute("ssoFailed", "sso".equals(error));
        model.addAttribute("signedOut", logout != null);
        model.addAttribute("sso", oidc.loginEnabled() ? oidc.loginLabel() : null);
        model.addAttribute("ssoPath", "/oauth2/authorization/" + Oidc.REGISTRATION);
        return "login";
    }
}
