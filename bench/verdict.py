"""bcastgen's verdict against a peer: the one rule every kind's report
applies (docs/benchmarks.md, "Verdict").

"tie (roof)": a physical tie, the two within 3% of each other and both at
90% or more of the same measured roof, where neither could be much faster;
otherwise "ahead" (bcastgen as fast or faster) or "below". A case without a
measured roof never ties: a difference there is one to explain or fix.
"""
TIE_WITHIN = 1.03      # max / min of the two times
TIE_ROOF_SHARE = 0.90  # each side's share of the roof


def share(roof_ns, ns):
    """The share of the roof a time reaches (roof time / its time), or None without a roof."""
    return roof_ns / ns if roof_ns and ns else None


def verdict_at_roof(ours_ns, peer_ns, roof_ns):
    """verdict() with both sides' shares of one roof, measured as the time it takes for the same traffic."""
    return verdict(ours_ns, peer_ns, share(roof_ns, ours_ns), share(roof_ns, peer_ns))


def tally(verdicts):
    """The line every kind's report ends with: how many of its verdicts are each."""
    v = list(verdicts)
    return "verdicts: ahead=%d tie=%d below=%d" % (v.count("ahead"), v.count("tie (roof)"), v.count("below"))


def verdict(ours_ns, peer_ns, ours_share=None, peer_share=None):
    """bcastgen's verdict against a peer from their times and their shares of the same roof (None: not
    measured)."""
    close = max(ours_ns, peer_ns) / min(ours_ns, peer_ns) <= TIE_WITHIN
    if close and ours_share is not None and peer_share is not None and min(ours_share, peer_share) >= TIE_ROOF_SHARE:
        return "tie (roof)"
    return "ahead" if peer_ns >= ours_ns else "below"
