"""Fig. 8 of Hooker, Mentch & Zhou (2021): false rejections of the substitute-and-relearn test."""

from __future__ import annotations

from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.studies.extrapolation.figures import panels as pn

#: the method roles (how the noise block is substituted) and their panel titles
PANELS = {"permute": "permutation", "knockoff": "knockoffs", "conditional": "true conditional"}
SNR_STYLES = [("-", "o"), ("-.", "s"), (":", "^")]
ALPHA = 0.05


@figure("extrapolation.fig_8", methods=tuple(PANELS))
def draw(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path) -> None:
    import numpy as np
    from matplotlib.lines import Line2D
    from scipy.special import betaincinv

    tests = inputs.estimates(*PANELS)
    rates = (tests.groupby(["role", "learner", "p_snr", "p_q"])["reject"]
             .agg(k="sum", n="count").reset_index())
    rates["rate"] = rates["k"] / rates["n"]
    k, n = rates["k"], rates["n"]
    rates["below"] = rates["rate"] - np.where(k > 0, betaincinv(k, n - k + 1, 0.025), 0.0)
    rates["above"] = np.where(k < n, betaincinv(k + 1, n - k, 0.975), 1.0) - rates["rate"]
    learners = pn.learner_order(rates["learner"])
    snrs = sorted(rates["p_snr"].unique())
    qs = sorted(rates["p_q"].unique())
    series = [(lr, snr) for lr in learners for snr in snrs]
    roles = [r for r in PANELS if r in set(rates["role"])]

    fig, style = st.new_figure(spec, rows=1, width=12.0, panel_height=3.8)
    axes = fig.subplots(1, len(roles), sharey=True, squeeze=False)[0]
    for ax, role in zip(axes, roles, strict=True):
        for i, (learner, snr) in enumerate(series):
            cell = rates[(rates["role"] == role) & (rates["learner"] == learner)
                         & (rates["p_snr"] == snr)].sort_values("p_q")
            x = np.array([qs.index(q) for q in cell["p_q"]]) + st.dodge(i, len(series), 0.7)
            linestyle, marker = SNR_STYLES[snrs.index(snr) % len(SNR_STYLES)]
            ax.errorbar(x, cell["rate"], yerr=[cell["below"], cell["above"]],
                        color=pn.look(learner).colour, linestyle=linestyle, marker=marker,
                        markersize=4, linewidth=1.0, elinewidth=0.7, capsize=1.5)
        ax.axhline(ALPHA, **st.THEORY)
        ax.set_xticks(range(len(qs)), [f"{q:g}" for q in qs])
        ax.set_xlim(-0.6, len(qs) - 0.4)
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("q (number of conditionally null features)")
        ax.set_title(f"substitutes: {PANELS[role]}")
    reps = rates["n"].max()
    axes[0].set_ylabel(f"rejection rate at α = {ALPHA:g}\n(share of {reps} reps, 95% CI)")

    handles = [Line2D([], [], color=pn.look(lr).colour, linewidth=3, label=pn.look(lr).label)
               for lr in learners]
    handles += [Line2D([], [], color="0.3", linestyle=ls, marker=mk, markersize=4,
                       label=f"SNR = {snr:g}")
                for snr, (ls, mk) in zip(snrs, SNR_STYLES, strict=False)]
    handles.append(pn.theory_handle(f"α = {ALPHA:g}"))
    st.legend_below(fig, handles, ncols=min(len(handles), 5))
    st.save(fig, style, out_png, out_pdf)
