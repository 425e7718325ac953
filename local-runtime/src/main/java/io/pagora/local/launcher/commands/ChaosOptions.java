package io.pagora.local.launcher.commands;

import io.pagora.local.cli.Options;
import io.pagora.local.launcher.Console;
import java.util.ArrayList;
import java.util.List;

/**
 * The chaos command's options ({@code infra/local/pagora chaos --help}): the scenarios named ({@code all}: the
 * single platform's catalogue, or the scaled one's), in order, and the ledger. A scaled platform's scenario needs
 * {@code --scale}.
 */
record ChaosOptions(List<String> scenarios, String ledger) {

    static ChaosOptions parse(List<String> arguments, String defaultLedger, boolean scaled) {
        Options options = new Options("chaos", arguments);
        String ledger = options.string("ledger", defaultLedger);
        List<String> scenarios = new ArrayList<>();
        for (String argument : options.arguments()) {
            if (argument.equals("all")) {
                scenarios.addAll(Chaos.catalogue(scaled));
            } else if (argument.startsWith("-")) {
                throw Console.fail("unknown chaos option: %s (see: infra/local/pagora chaos --help)", argument);
            } else if (Chaos.FAULT_SECONDS.containsKey(argument)) {
                scenarios.add(argument);
            } else {
                throw Console.fail(
                        "unknown chaos scenario '%s' (%s or all)",
                        argument, String.join(" ", Chaos.FAULT_SECONDS.keySet()));
            }
        }
        options.rejectUnknown();
        if (scenarios.isEmpty()) {
            throw Console.fail("chaos needs a scenario: %s or all", String.join(" ", Chaos.FAULT_SECONDS.keySet()));
        }
        List<String> needScale =
                scenarios.stream().filter(Chaos.SCALED_SCENARIOS::contains).toList();
        if (!scaled && !needScale.isEmpty()) {
            throw Console.fail(
                    "%s need the scaled platform: chaos --scale %s",
                    String.join(", ", needScale), String.join(" ", needScale));
        }
        return new ChaosOptions(List.copyOf(scenarios), ledger);
    }
}
