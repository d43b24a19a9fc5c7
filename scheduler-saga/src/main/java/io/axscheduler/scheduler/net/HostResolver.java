package io.axscheduler.scheduler.net;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Turns a host name into addresses for the outbound calls (http jobs, worker pushes): the one lookup whose answer is
 * both checked and connected to. A bean, so a deployment (or a test) can answer names its own way.
 */
@FunctionalInterface
public interface HostResolver {

    HostResolver SYSTEM = InetAddress::getAllByName;

    InetAddress[] resolve(String host) throws UnknownHostException;
}
