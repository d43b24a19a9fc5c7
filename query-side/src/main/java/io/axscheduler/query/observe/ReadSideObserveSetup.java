package io.axscheduler.query.observe;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

@Configuration
@EnableConfigurationProperties({ObserveProperties.class, LivenessProperties.class})
class ReadSideObserveSetup {}
