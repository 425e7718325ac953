package io.pagora.local.launcher.commands;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Settings;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.platform.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The seeded participants and the payments between them: seeding through payment-api (local-runtime's seed, the
 * one seeding path: the demo, bench, verify, chaos and k6 all read the accounts file it writes), and the demo's
 * degraded sender for a machine without k6.
 */
public final class Load {

    private Load() {}

    static void seed(Platform platform) {
        Settings settings = platform.settings;
        List<Long> ispbs = Settings.seededIspbs(settings.integer("BANKS"));
        String list = String.join(
                ",", ispbs.stream().map(ispb -> "%08d".formatted(ispb)).toList());
        Console.say(
                "seeding through payment-api: %d banks (%s) x %d customers (log %s)",
                ispbs.size(), list, settings.integer("CUSTOMERS_PER_BANK"), platform.layout.log("seed"));
        platform.certs().ensure(ispbs);
        Platform.createDirectories(platform.layout.demo());
        Path log = platform.layout.log("seed");
        int status = platform.tools.runLogged(
                List.of(),
                "seed",
                List.of(
                        "--out=" + platform.layout.accounts(),
                        "--api-url=" + platform.serviceUrl("payment-api", ""),
                        "--tls-dir=" + platform.layout.tls(),
                        "--ispbs=" + list,
                        "--customers-per-bank=" + settings.integer("CUSTOMERS_PER_BANK"),
                        "--reserve-funding=" + settings.number("RESERVE_FUNDING"),
                        "--last-reserve-funding=" + settings.number("LAST_RESERVE_FUNDING"),
                        "--customer-funding=" + settings.number("CUSTOMER_FUNDING"),
                        "--poor-customers=" + settings.integer("POOR_CUSTOMERS")),
                log);
        if (status != 0) {
            System.err.println(Supervisor.tail(log, 20));
            throw Console.fail("seeding failed (log: %s)", log);
        }
        Console.say("%s", Supervisor.tail(log, 1));
    }

    /** The seeded accounts of one kind (bank or customer), from the accounts file. */
    public static List<String> accounts(Path accountsFile, String kind) {
        try {
            return Files.readAllLines(accountsFile).stream()
                    .map(line -> line.split("\\s+"))
                    .filter(fields -> fields.length > 1 && fields[0].equals(kind))
                    .map(fields -> fields[1])
                    .toList();
        } catch (IOException e) {
            throw Console.fail("cannot read %s: %s", accountsFile, e.getMessage());
        }
    }

    /**
     * Without k6: the degraded sender, a tool of its own (send-degraded), {@code payments} payments between the seeded
     * customers, a share of them by key and by BR Code as k6 sends them (KEY_SHARE, QR_SHARE), its answers written as
     * k6's.
     */
    static void sendDegraded(Platform platform, int payments, Path answers) {
        Path log = platform.layout.log("send-degraded");
        int status = platform.tools.runLogged(
                List.of(),
                "send-degraded",
                List.of(
                        "--accounts=" + platform.layout.accounts(),
                        "--api-url=" + platform.serviceUrl("payment-api", ""),
                        "--tls-dir=" + platform.layout.tls(),
                        "--payments=" + payments,
                        "--answers=" + answers,
                        "--key-share=" + platform.settings.share("KEY_SHARE"),
                        "--qr-share=" + platform.settings.share("QR_SHARE")),
                log);
        if (status != 0) {
            System.err.println(Supervisor.tail(log, 20));
            throw Console.fail("the degraded sender failed (log: %s)", log);
        }
        Console.say("%s", Supervisor.tail(log, 1));
    }
}
