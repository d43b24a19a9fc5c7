package io.axscheduler.deploy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local SMTP server that accepts every mail and keeps its recipients and text: enough of RFC 5321 (EHLO/HELO, MAIL,
 * RCPT, DATA, RSET, NOOP, QUIT) for Jakarta Mail to deliver to it, without authentication or TLS.
 */
final class SmtpReceiver implements AutoCloseable {

    record Mail(List<String> to, String data) {}

    final List<Mail> mails = new CopyOnWriteArrayList<>();
    private final ServerSocket socket;
    private final Thread thread;

    SmtpReceiver() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = new Thread(this::serve, "smtp-receiver");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket client = socket.accept()) {
                session(client);
            } catch (IOException e) {
                // the next connection starts afresh; closing the server ends the loop
            }
        }
    }

    private void session(Socket client) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        OutputStream out = client.getOutputStream();
        reply(out, "220 localhost ESMTP test");
        List<String> to = new CopyOnWriteArrayList<>();
        String line;
        while ((line = in.readLine()) != null) {
            String upper = line.toUpperCase();
            if (upper.startsWith("EHLO")) {
                reply(out, "250-localhost\r\n250 8BITMIME");
            } else if (upper.startsWith("RCPT TO:")) {
                to.add(line.substring(8).trim().replace("<", "").replace(">", ""));
                reply(out, "250 OK");
            } else if (upper.equals("DATA")) {
                reply(out, "354 end with .");
                StringBuilder data = new StringBuilder();
                while ((line = in.readLine()) != null && !line.equals("."))
                    data.append(line).append('\n');
                mails.add(new Mail(List.copyOf(to), data.toString()));
                to.clear();
                reply(out, "250 OK queued");
            } else if (upper.equals("QUIT")) {
                reply(out, "221 bye");
                return;
            } else {
                reply(out, "250 OK"); // HELO, MAIL FROM, RSET, NOOP
            }
        }
    }

    private static void reply(OutputStream out, String text) throws IOException {
        out.write((text + "\r\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
