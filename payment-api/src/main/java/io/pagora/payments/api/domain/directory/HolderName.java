package io.pagora.payments.api.domain.directory;

import java.util.Locale;
import java.util.Set;

/**
 * How a look-up shows a key's holder to another bank: what the payer sees before paying, enough to recognize whom
 * they pay and not enough to learn a stranger's full name from a key they guessed. A company's name is shown whole
 * (it is public, and the payer must recognize the shop). A person's keeps its first word whole and every later word
 * as its initial, particles ({@code da}, {@code de}, {@code dos}...) left out: "Maria da Silva Souza" is shown as
 * "Maria S. S.".
 */
public final class HolderName {

    public static final int CHARS_MAX = 140;

    private static final Set<String> PARTICLES = Set.of("da", "das", "de", "di", "do", "dos", "du", "e", "d'");

    private HolderName() {}

    public static String masked(String name, String taxId) {
        if (TaxId.isCompany(taxId)) {
            return name;
        }
        String[] words = name.trim().split("\\s+");
        StringBuilder shown = new StringBuilder(name.length());
        shown.append(words[0]);
        for (int i = 1; i < words.length; i++) {
            String word = words[i];
            if (PARTICLES.contains(word.toLowerCase(Locale.ROOT))) {
                continue;
            }
            shown.append(' ').appendCodePoint(word.codePointAt(0)).append('.');
        }
        return shown.toString();
    }
}
