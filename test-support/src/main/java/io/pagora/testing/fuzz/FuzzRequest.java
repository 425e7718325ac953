package io.pagora.testing.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One generated request and what may answer it.
 *
 * @param operation the documented operation it aims at ({@code POST /payments}), or what it probes instead
 * @param mutation what was broken, for the report ({@code body: amountCentavos as a string})
 * @param target the request target exactly as sent (ISO-8859-1 characters stand for raw bytes)
 * @param headers header lines exactly as sent, in order, duplicates allowed; Host and Connection are added
 * @param body null for none
 * @param allowedStatuses the statuses the document allows for this request
 */
public record FuzzRequest(
        String operation,
        String mutation,
        String method,
        String target,
        List<Map.Entry<String, String>> headers,
        byte[] body,
        Set<Integer> allowedStatuses) {

    boolean hasHeader(String name) {
        return headers.stream().anyMatch(header -> header.getKey().equalsIgnoreCase(name));
    }

    FuzzRequest withMutation(String what) {
        return new FuzzRequest(operation, what, method, target, headers, body, allowedStatuses);
    }

    FuzzRequest withTarget(String newTarget) {
        return new FuzzRequest(operation, mutation, method, newTarget, headers, body, allowedStatuses);
    }

    FuzzRequest withMethod(String newMethod, Set<Integer> statuses) {
        return new FuzzRequest(operation, mutation, newMethod, target, headers, body, statuses);
    }

    FuzzRequest withBody(byte[] newBody) {
        return new FuzzRequest(operation, mutation, method, target, headers, newBody, allowedStatuses);
    }

    /** Replaces every header of that name by one with this value; a null value removes the header. */
    FuzzRequest withHeader(String name, String value) {
        List<Map.Entry<String, String>> changed = new ArrayList<>();
        for (Map.Entry<String, String> header : headers) {
            if (!header.getKey().equalsIgnoreCase(name)) {
                changed.add(header);
            }
        }
        if (value != null) {
            changed.add(Map.entry(name, value));
        }
        return new FuzzRequest(operation, mutation, method, target, List.copyOf(changed), body, allowedStatuses);
    }

    /** Adds one more header line, keeping any of the same name. */
    FuzzRequest plusHeader(String name, String value) {
        List<Map.Entry<String, String>> changed = new ArrayList<>(headers);
        changed.add(Map.entry(name, value));
        return new FuzzRequest(operation, mutation, method, target, List.copyOf(changed), body, allowedStatuses);
    }
}
