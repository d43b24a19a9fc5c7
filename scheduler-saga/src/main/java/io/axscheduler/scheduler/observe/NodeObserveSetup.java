package io.axscheduler.scheduler.observe;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

@Configuration
@EnableConfigurationProperties(ObserveProperties.class)
class NodeObserveSetup {}
