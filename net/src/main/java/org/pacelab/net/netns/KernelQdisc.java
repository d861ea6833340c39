package org.pacelab.net.netns;

import java.util.Locale;
import org.pacelab.net.spec.DirectionSpec;
import org.pacelab.net.spec.LinkSpec;
import org.pacelab.net.spec.LinkSpecParser;
import org.pacelab.net.spec.SpecException;

/**
 * Moves a direction's rate limiter into the kernel: a tbf qdisc on the sending namespace's TUN device (server's
 * for down, client's for up), which the emulator then reads already shaped. Only tbf is offered: netem, fq and
 * etf are not built into every kernel (this one has none of them), and fq/etf are sender-side qdiscs rather than
 * a link; asking for a kind the kernel lacks is refused with tc's answer. With kernel tbf the tap sits after the
 * bottleneck rather than before it, and a limit shared with the delay line cannot be reproduced (tbf's own byte
 * limit is used: the queue limit in bytes, or packets x 1514 bytes).
 */
public final class KernelQdisc {
    private KernelQdisc() {}

    /** Parses "down=tbf" / "up=tbf"; returns the direction ("down"/"up"). */
    public static String parseDirection(String option) throws NetnsException {
        String[] kv = option.split("=", 2);
        if (kv.length != 2 || !(kv[0].equals("down") || kv[0].equals("up"))) {
            throw new NetnsException("--kernel-qdisc: '" + option + "' is not DIRECTION=KIND; write down=tbf or up=tbf");
        }
        String kind = kv[1].toLowerCase(Locale.ROOT);
        if (!kind.equals("tbf")) {
            String missing = missingReason(kind);
            String kernel = missing != null ? "this kernel has no " + kind + " qdisc (tc: " + missing + "); "
                    : kind + " exists in this kernel but is not offered; ";
            String role = switch (kind) {
                case "fq", "etf" -> kind + " paces a sender rather than shaping a link: put it on the server's interface with "
                        + "'pacelab netns run --ns server -- tc qdisc add dev " + NetnsLab.SERVER_TUN + " root " + kind + "'";
                case "netem" -> "the user-space model runs delay, jitter, loss and the queue instead; drop this option";
                default -> "only tbf (the rate limiter) can move into the kernel";
            };
            throw new NetnsException("--kernel-qdisc: " + kernel + role);
        }
        return kv[0];
    }

    /** The tc command line for a direction's rate limiter. */
    static String[] tbfCommand(String ns, String dev, DirectionSpec d) throws NetnsException {
        if (d.rateBps() <= 0) {
            throw new NetnsException("--kernel-qdisc: the direction has no fixed rate (rate=unlimited or a trace); tbf needs rate=RATE");
        }
        long burst = d.burstBytes() > 0 ? d.burstBytes() : 1540;
        long limit = switch (d.queue().kind()) {
            case PACKETS -> (long) d.queue().value() * 1514;
            case BYTES -> (long) d.queue().value();
            default -> 10_000_000L;
        };
        return new String[] {"ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", dev, "root", "tbf", "rate",
                d.rateBps() + "bit", "burst", String.valueOf(burst), "limit", String.valueOf(limit)};
    }

    /** Installs tbf for {@code direction} and returns the link with that direction's rate and queue removed. */
    public static LinkSpec install(LinkSpec link, String direction) throws NetnsException {
        boolean down = direction.equals("down");
        DirectionSpec d = down ? link.down() : link.up();
        String[] cmd = tbfCommand(down ? NetnsLab.SERVER_NS : NetnsLab.CLIENT_NS, down ? NetnsLab.SERVER_TUN : NetnsLab.CLIENT_TUN, d);
        Shell.Result r = Shell.run(cmd);
        if (!r.ok()) {
            if (r.output().contains("unknown")) {
                throw new NetnsException("this kernel has no tbf qdisc (tc: " + r.output().lines().findFirst().orElse("") + "); "
                        + "drop --kernel-qdisc and let the user-space model shape " + direction);
            }
            throw new NetnsException("cannot install tbf on " + direction + ": " + r.output());
        }
        try {
            DirectionSpec rest = LinkSpecParser.apply("--kernel-qdisc", d, "rate=unlimited queue=unlimited shared=off");
            return down ? new LinkSpec(link.preset(), rest, link.up()) : new LinkSpec(link.preset(), link.down(), rest);
        } catch (SpecException e) {
            throw new NetnsException(e.getMessage());
        }
    }

    /**
     * Why this kernel cannot create a qdisc of {@code kind} (tc's first line), or null if it can. Probes on the
     * loopback device of a scratch namespace, which is removed again.
     */
    public static String missingReason(String kind) throws NetnsException {
        if (!kind.matches("[a-z_0-9]+")) return "'" + kind + "' is not a qdisc name";
        String ns = NetnsLab.PREFIX + "probe";
        Shell.run("ip", "netns", "del", ns);
        if (!Shell.run("ip", "netns", "add", ns).ok()) return null;
        try {
            Shell.Result r = Shell.run("ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", "lo", "root", kind);
            if (r.ok()) return null;
            String first = r.output().lines().findFirst().orElse("");
            return first.contains("unknown") || first.contains("Unknown") ? first : null;
        } finally {
            Shell.run("ip", "netns", "del", ns);
        }
    }
}
