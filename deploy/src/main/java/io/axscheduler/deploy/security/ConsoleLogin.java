package io.axscheduler.deploy.security;

import io.axscheduler.api.security.Caller;
import java.util.List;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.authentication.WebAuthenticationDetails;

/**
 * The console's form login against {@link ConsoleUsers}. Every failure answers the same "bad credentials" (unknown
 * user, wrong password, locked user, locked client address), and an unknown user costs the same BCrypt work as a
 * known one. Every failure counts against the user name (if it exists) and the client address ({@link
 * LoginAddresses}).
 */
final class ConsoleLogin implements AuthenticationProvider {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ConsoleLogin.class);

    /** How a console user's actor begins: {@code user:<username>}. */
    static final String USER = "user:";

    private final ConsoleUsers users;
    private final LoginAddresses addresses;
    private final PasswordEncoder encoder;
    private final String dummyHash;

    ConsoleLogin(ConsoleUsers users, LoginAddresses addresses, PasswordEncoder encoder) {
        this.users = users;
        this.addresses = addresses;
        this.encoder = encoder;
        this.dummyHash = encoder.encode("not a password anyone has");
    }

    @Override
    public Authentication authenticate(Authentication authentication) throws AuthenticationException {
        String username = String.valueOf(authentication.getPrincipal());
        String password = String.valueOf(authentication.getCredentials());
        String address = authentication.getDetails() instanceof WebAuthenticationDetails details
                ? details.getRemoteAddress()
                : null;
        if (addresses.locked(address)) {
            // not counted: a lock that every refused attempt extended would never end for the people behind a NAT
            encoder.matches(password, dummyHash);
            throw refused(username, address, "the address is locked after too many failed sign-ins");
        }
        var user = users.find(username);
        if (user.isEmpty()) {
            encoder.matches(password, dummyHash);
            addresses.failed(address);
            throw refused(username, address, "no such user" + addressNowLocked(address));
        }
        if (users.locked(user.get())) {
            encoder.matches(password, dummyHash);
            addresses.failed(address);
            throw refused(
                    username, address, "the user is locked after too many failed sign-ins" + addressNowLocked(address));
        }
        if (!encoder.matches(password, user.get().passwordHash())) {
            users.loginFailed(username);
            addresses.failed(address);
            boolean userLocked = users.find(username).map(users::locked).orElse(false);
            throw refused(
                    username,
                    address,
                    "wrong password" + (userLocked ? "; the user is now locked" : "") + addressNowLocked(address));
        }
        users.loginSucceeded(username);
        // the account's name as it was made, not as typed: the database matched it ignoring case and trailing spaces,
        // and the actor of everything done in this session is this name
        Caller caller =
                new Caller(USER + user.get().username(), null, user.get().grants());
        UsernamePasswordAuthenticationToken signedIn =
                UsernamePasswordAuthenticationToken.authenticated(caller, null, List.of());
        signedIn.setDetails(new Account(user.get().createdAt()));
        return signedIn;
    }

    /**
     * The answer to a refused sign-in, always the same "bad credentials"; the log says why, for those who watch for
     * guessing (the user name as typed, cut short and without control characters: it is the client's text).
     */
    private static BadCredentialsException refused(String username, String address, String why) {
        String shown = Oidc.printable(username, 100);
        log.warn("console sign-in refused for user '{}' from {}: {}", shown, address, why);
        return new BadCredentialsException("bad credentials");
    }

    private String addressNowLocked(String address) {
        return address != null && addresses.locked(address) ? "; the address is now locked" : "";
    }

    /**
     * Which account a session signed in to: a user deleted and made again under the same name is another account, and
     * the sessions of the first end ({@link SignedInUsers}).
     */
    record Account(long createdAt) implements java.io.Serializable {}

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
