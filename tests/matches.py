"""What the tests of play strength share: a policy's share of a match's wins."""


def win_share(df, policy):
    """Share of the games `policy` won in a 2-player seat-rotated run (a shared victory counts half)."""
    mine = df.win_0.where(df.policy_0 == policy, df.win_1).astype(float)
    theirs = df.win_1.where(df.policy_0 == policy, df.win_0).astype(float)
    return float((mine * (1 - 0.5 * theirs)).mean())
