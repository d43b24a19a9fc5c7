package io.axscheduler.scheduler.net;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** A response body read up to {@code maxBytes}; the rest is not read (the connection is dropped). */
public final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {

    private final int maxBytes;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    public CappedBody(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    public static HttpResponse.BodyHandler<byte[]> handler(int maxBytes) {
        return info -> new CappedBody(maxBytes);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        for (ByteBuffer item : items) {
            int room = maxBytes - out.size();
            int take = Math.min(room, item.remaining());
            byte[] chunk = new byte[take];
            item.get(chunk);
            out.write(chunk, 0, take);
            if (out.size() >= maxBytes) {
                subscription.cancel();
                result.complete(out.toByteArray());
                return;
            }
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        result.complete(out.toByteArray());
    }
}
