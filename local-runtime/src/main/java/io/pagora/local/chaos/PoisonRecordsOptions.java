package io.pagora.local.chaos;

import io.pagora.local.cli.Options;

/** The poison tool's command line (poison), read once: its defaults are written here. */
record PoisonRecordsOptions(String bootstrap, int sendTimeoutSeconds) {

    static PoisonRecordsOptions parse(String[] args) {
        Options options = new Options("poison", args);
        String bootstrap = options.string("bootstrap-servers", "127.0.0.1:9092");
        int sendTimeoutSeconds = options.integer("send-timeout-seconds", 30);
        options.rejectUnknown();
        return new PoisonRecordsOptions(bootstrap, sendTimeoutSeconds);
    }
}
