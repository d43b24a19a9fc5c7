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
            throw new BadCredentialsException("bad credentials");
        }
        var user = users.find(username);
        if (user.isEmpty()) {
            encoder.matches(password, dummyHash);
            addresses.failed(address);
            throw new BadCredentialsException("bad credentials");
        }
        if (users.locked(user.get())) {
            encoder.matches(password, dummyHash);
            addresses.failed(address);
            throw new BadCredentialsException("bad credentials");
        }
        if (!encoder.matches(password, user.get().passwordHash())) {
            users.loginFailed(username);
            addresses.failed(address);
            throw new BadCredentialsException("bad credentials");
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
     * Which account a session signed in to: a user deleted and made again under the same name is another account, and
     * the sessions of the first end ({@link SignedInUsers}).
     */
    record Account(long createdAt) implements java.io.Serializable {}

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
