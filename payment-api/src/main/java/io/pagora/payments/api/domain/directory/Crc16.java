package io.pagora.payments.api.domain.directory;

import java.nio.charset.StandardCharsets;

/**
 * CRC16-CCITT as EMV QR codes (and so BR Codes) use it: polynomial 0x1021, initial value 0xFFFF, no reflection, no
 * final XOR, over the payload's UTF-8 bytes up to and including the CRC field's id and length ({@code 6304}).
 */
public final class Crc16 {

    private static final int POLYNOMIAL = 0x1021;
    private static final int[] TABLE = table();

    private Crc16() {}

    public static int of(String text) {
        int crc = 0xFFFF;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ b) & 0xFF]) & 0xFFFF;
        }
        return crc;
    }

    /** As a BR Code writes it: four upper-case hexadecimal digits. */
    public static String hex(String text) {
        return String.format("%04X", of(text));
    }

    private static int[] table() {
        int[] table = new int[256];
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ POLYNOMIAL : crc << 1;
            }
            table[i] = crc & 0xFFFF;
        }
        return table;
    }
}
