package io.axscheduler.console;

import java.util.Locale;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.MessageSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.PropertySource;
import org.springframework.context.support.ResourceBundleMessageSource;
import org.springframework.web.servlet.LocaleResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.i18n.CookieLocaleResolver;
import org.springframework.web.servlet.i18n.LocaleChangeInterceptor;

/**
 * The console's web setup: its message bundles (English, Simplified Chinese), the language taken from a cookie set
 * by the switch ({@code ?lang=zh-CN}) or else from the browser, and {@code /} leading to the console.
 */
@Configuration(proxyBeanMethods = false)
@PropertySource("classpath:console/assets.properties")
@EnableConfigurationProperties({ConsoleProperties.class, NodeName.class})
class ConsoleSetup implements WebMvcConfigurer {

    static final String LANGUAGE_COOKIE = "ax-lang";

    @Bean
    MessageSource messageSource() {
        ResourceBundleMessageSource messages = new ResourceBundleMessageSource();
        messages.setBasenames("console/messages");
        messages.setDefaultEncoding("UTF-8");
        // a browser asking for a language the console lacks gets English, not the server's locale
        messages.setFallbackToSystemLocale(false);
        return messages;
    }

    @Bean
    LocaleResolver localeResolver() {
        CookieLocaleResolver resolver = new CookieLocaleResolver(LANGUAGE_COOKIE);
        resolver.setDefaultLocaleFunction(request -> {
            Locale asked = request.getLocale();
            return asked != null && asked.getLanguage().equals("zh") ? Locale.SIMPLIFIED_CHINESE : Locale.ENGLISH;
        });
        return resolver;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        LocaleChangeInterceptor change = new LocaleChangeInterceptor();
        change.setParamName("lang");
        change.setIgnoreInvalidLocale(true);
        registry.addInterceptor(change).addPathPatterns("/console", "/console/**", "/login");
    }

    @Override
    public void addViewControllers(ViewControllerRegistry registry) {
        registry.addRedirectViewController("/", "/console");
    }
}
