package io.axscheduler.api.spi;

import java.util.Set;

/** The job types some executor on this deployment can run; submits of any other type are refused. */
public interface JobTypeCatalog {

    boolean knows(String jobType);

    Set<String> jobTypes();
}
