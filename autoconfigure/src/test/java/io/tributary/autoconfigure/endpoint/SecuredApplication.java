package io.tributary.autoconfigure.endpoint;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The application the endpoint's web tests run: every auto-configuration, HTTP basic with three
 * users, and a filter chain that lets every request through, so the endpoint's own checks decide.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class SecuredApplication {

	/** Password of every test user; they sign in to the endpoint, not to a database. */
	static final String USER_PASSWORD = "user-password";

	@Bean
	SecurityFilterChain permitAllWithBasicAuthentication(HttpSecurity http) throws Exception {
		return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.httpBasic(Customizer.withDefaults())
			.csrf((csrf) -> csrf.disable())
			.build();
	}

	@Bean
	InMemoryUserDetailsManager users() {
		return new InMemoryUserDetailsManager(user("operator", "CDC_ADMIN"), user("reader", "CDC_READ"),
				user("viewer", "VIEWER"));
	}

	private static UserDetails user(String name, String role) {
		return User.withUsername(name).password("{noop}" + USER_PASSWORD).roles(role).build();
	}

}
