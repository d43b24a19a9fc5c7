package io.axscheduler.query.admin;

/** A read model that {@code POST /api/v1/admin/projections/{name}/rebuild} can rebuild from the event store. */
public interface ProjectionRebuild {

    /** The name in the endpoint's path. */
    String name();

    /** Rebuilds it, answering what was done (the JSON body of the answer). */
    Object rebuild();
}
