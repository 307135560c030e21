"""The values of the paper's Tables 2, 3 and 4, copied from its LaTeX source (results.tex).

Source: the English LaTeX of "Attention Is All You Need", commit 3f933e8 of the
paper-translations/Transformer mirror. One entry per table cell that holds a
number: (table, row, column, value). Training costs are in FLOPs; Table 3's
``params`` column is in millions and its ``train steps`` column in steps.
Empty cells of Table 3 mean "as in the base model" and are not listed.

``test_paper_tables.py`` checks every decimal number stated by content citing
a table label (``S6.T2``, ``S6.T3``, ``S6.T4``) against these values.
"""

from __future__ import annotations

T2 = "T2"
T3 = "T3"
T4 = "T4"

TABLES: list[tuple[str, str, str, float]] = [
    # Table 2: BLEU on newstest2014 and training cost (FLOPs).
    (T2, "ByteNet", "BLEU EN-DE", 23.75),
    (T2, "Deep-Att + PosUnk", "BLEU EN-FR", 39.2),
    (T2, "Deep-Att + PosUnk", "cost EN-FR", 1.0e20),
    (T2, "GNMT + RL", "BLEU EN-DE", 24.6),
    (T2, "GNMT + RL", "BLEU EN-FR", 39.92),
    (T2, "GNMT + RL", "cost EN-DE", 2.3e19),
    (T2, "GNMT + RL", "cost EN-FR", 1.4e20),
    (T2, "ConvS2S", "BLEU EN-DE", 25.16),
    (T2, "ConvS2S", "BLEU EN-FR", 40.46),
    (T2, "ConvS2S", "cost EN-DE", 9.6e18),
    (T2, "ConvS2S", "cost EN-FR", 1.5e20),
    (T2, "MoE", "BLEU EN-DE", 26.03),
    (T2, "MoE", "BLEU EN-FR", 40.56),
    (T2, "MoE", "cost EN-DE", 2.0e19),
    (T2, "MoE", "cost EN-FR", 1.2e20),
    (T2, "Deep-Att + PosUnk Ensemble", "BLEU EN-FR", 40.4),
    (T2, "Deep-Att + PosUnk Ensemble", "cost EN-FR", 8.0e20),
    (T2, "GNMT + RL Ensemble", "BLEU EN-DE", 26.30),
    (T2, "GNMT + RL Ensemble", "BLEU EN-FR", 41.16),
    (T2, "GNMT + RL Ensemble", "cost EN-DE", 1.8e20),
    (T2, "GNMT + RL Ensemble", "cost EN-FR", 1.1e21),
    (T2, "ConvS2S Ensemble", "BLEU EN-DE", 26.36),
    (T2, "ConvS2S Ensemble", "BLEU EN-FR", 41.29),
    (T2, "ConvS2S Ensemble", "cost EN-DE", 7.7e19),
    (T2, "ConvS2S Ensemble", "cost EN-FR", 1.2e21),
    (T2, "Transformer (base model)", "BLEU EN-DE", 27.3),
    (T2, "Transformer (base model)", "BLEU EN-FR", 38.1),
    (T2, "Transformer (base model)", "cost", 3.3e18),
    (T2, "Transformer (big)", "BLEU EN-DE", 28.4),
    (T2, "Transformer (big)", "BLEU EN-FR", 41.8),
    (T2, "Transformer (big)", "cost", 2.3e19),
    # Table 3: variations on newstest2013 (dev); unlisted cells equal the base model's.
    (T3, "base", "N", 6),
    (T3, "base", "d_model", 512),
    (T3, "base", "d_ff", 2048),
    (T3, "base", "h", 8),
    (T3, "base", "d_k", 64),
    (T3, "base", "d_v", 64),
    (T3, "base", "P_drop", 0.1),
    (T3, "base", "eps_ls", 0.1),
    (T3, "base", "train steps", 100_000),
    (T3, "base", "PPL", 4.92),
    (T3, "base", "BLEU", 25.8),
    (T3, "base", "params", 65),
    (T3, "(A) h=1", "h", 1),
    (T3, "(A) h=1", "d_k = d_v", 512),
    (T3, "(A) h=1", "PPL", 5.29),
    (T3, "(A) h=1", "BLEU", 24.9),
    (T3, "(A) h=4", "h", 4),
    (T3, "(A) h=4", "d_k = d_v", 128),
    (T3, "(A) h=4", "PPL", 5.00),
    (T3, "(A) h=4", "BLEU", 25.5),
    (T3, "(A) h=16", "h", 16),
    (T3, "(A) h=16", "d_k = d_v", 32),
    (T3, "(A) h=16", "PPL", 4.91),
    (T3, "(A) h=16", "BLEU", 25.8),
    (T3, "(A) h=32", "h", 32),
    (T3, "(A) h=32", "d_k = d_v", 16),
    (T3, "(A) h=32", "PPL", 5.01),
    (T3, "(A) h=32", "BLEU", 25.4),
    (T3, "(B) d_k=16", "d_k", 16),
    (T3, "(B) d_k=16", "PPL", 5.16),
    (T3, "(B) d_k=16", "BLEU", 25.1),
    (T3, "(B) d_k=16", "params", 58),
    (T3, "(B) d_k=32", "d_k", 32),
    (T3, "(B) d_k=32", "PPL", 5.01),
    (T3, "(B) d_k=32", "BLEU", 25.4),
    (T3, "(B) d_k=32", "params", 60),
    (T3, "(C) N=2", "N", 2),
    (T3, "(C) N=2", "PPL", 6.11),
    (T3, "(C) N=2", "BLEU", 23.7),
    (T3, "(C) N=2", "params", 36),
    (T3, "(C) N=4", "N", 4),
    (T3, "(C) N=4", "PPL", 5.19),
    (T3, "(C) N=4", "BLEU", 25.3),
    (T3, "(C) N=4", "params", 50),
    (T3, "(C) N=8", "N", 8),
    (T3, "(C) N=8", "PPL", 4.88),
    (T3, "(C) N=8", "BLEU", 25.5),
    (T3, "(C) N=8", "params", 80),
    (T3, "(C) d_model=256", "d_model", 256),
    (T3, "(C) d_model=256", "d_k = d_v", 32),
    (T3, "(C) d_model=256", "PPL", 5.75),
    (T3, "(C) d_model=256", "BLEU", 24.5),
    (T3, "(C) d_model=256", "params", 28),
    (T3, "(C) d_model=1024", "d_model", 1024),
    (T3, "(C) d_model=1024", "d_k = d_v", 128),
    (T3, "(C) d_model=1024", "PPL", 4.66),
    (T3, "(C) d_model=1024", "BLEU", 26.0),
    (T3, "(C) d_model=1024", "params", 168),
    (T3, "(C) d_ff=1024", "d_ff", 1024),
    (T3, "(C) d_ff=1024", "PPL", 5.12),
    (T3, "(C) d_ff=1024", "BLEU", 25.4),
    (T3, "(C) d_ff=1024", "params", 53),
    (T3, "(C) d_ff=4096", "d_ff", 4096),
    (T3, "(C) d_ff=4096", "PPL", 4.75),
    (T3, "(C) d_ff=4096", "BLEU", 26.2),
    (T3, "(C) d_ff=4096", "params", 90),
    (T3, "(D) P_drop=0.0", "P_drop", 0.0),
    (T3, "(D) P_drop=0.0", "PPL", 5.77),
    (T3, "(D) P_drop=0.0", "BLEU", 24.6),
    (T3, "(D) P_drop=0.2", "P_drop", 0.2),
    (T3, "(D) P_drop=0.2", "PPL", 4.95),
    (T3, "(D) P_drop=0.2", "BLEU", 25.5),
    (T3, "(D) eps_ls=0.0", "eps_ls", 0.0),
    (T3, "(D) eps_ls=0.0", "PPL", 4.67),
    (T3, "(D) eps_ls=0.0", "BLEU", 25.3),
    (T3, "(D) eps_ls=0.2", "eps_ls", 0.2),
    (T3, "(D) eps_ls=0.2", "PPL", 5.47),
    (T3, "(D) eps_ls=0.2", "BLEU", 25.7),
    (T3, "(E) positional embedding", "PPL", 4.92),
    (T3, "(E) positional embedding", "BLEU", 25.7),
    (T3, "big", "N", 6),
    (T3, "big", "d_model", 1024),
    (T3, "big", "d_ff", 4096),
    (T3, "big", "h", 16),
    (T3, "big", "P_drop", 0.3),
    (T3, "big", "train steps", 300_000),
    (T3, "big", "PPL", 4.33),
    (T3, "big", "BLEU", 26.4),
    (T3, "big", "params", 213),
    # Table 4: English constituency parsing, WSJ Section 23 F1.
    (T4, "Vinyals & Kaiser el al. (2014), WSJ only, discriminative", "F1", 88.3),
    (T4, "Petrov et al. (2006), WSJ only, discriminative", "F1", 90.4),
    (T4, "Zhu et al. (2013), WSJ only, discriminative", "F1", 90.4),
    (T4, "Dyer et al. (2016), WSJ only, discriminative", "F1", 91.7),
    (T4, "Transformer (4 layers), WSJ only, discriminative", "F1", 91.3),
    (T4, "Zhu et al. (2013), semi-supervised", "F1", 91.3),
    (T4, "Huang & Harper (2009), semi-supervised", "F1", 91.3),
    (T4, "McClosky et al. (2006), semi-supervised", "F1", 92.1),
    (T4, "Vinyals & Kaiser el al. (2014), semi-supervised", "F1", 92.1),
    (T4, "Transformer (4 layers), semi-supervised", "F1", 92.7),
    (T4, "Luong et al. (2015), multi-task", "F1", 93.0),
    (T4, "Dyer et al. (2016), generative", "F1", 93.3),
]


def value(table: str, row: str, column: str) -> float:
    """The value of one cell."""
    (found,) = [v for t, r, c, v in TABLES if (t, r, c) == (table, row, column)]
    return found


DERIVED: dict[str, dict[float, tuple[str, float]]] = {
    T2: {
        2.04: (
            "big EN-DE BLEU minus the best previous (ConvS2S Ensemble)",
            value(T2, "Transformer (big)", "BLEU EN-DE") - value(T2, "ConvS2S Ensemble", "BLEU EN-DE"),
        ),
        0.19: (
            "big cost over MoE's EN-FR cost",
            value(T2, "Transformer (big)", "cost") / value(T2, "MoE", "cost EN-FR"),
        ),
        0.019: (
            "big cost over the ConvS2S Ensemble's EN-FR cost",
            value(T2, "Transformer (big)", "cost") / value(T2, "ConvS2S Ensemble", "cost EN-FR"),
        ),
    },
    T3: {
        0.9: (
            "single-head BLEU below the best setting of rows (A)",
            value(T3, "base", "BLEU") - value(T3, "(A) h=1", "BLEU"),
        ),
        1.2: (
            "BLEU lost without dropout, row (D) P_drop = 0.0 against the base model",
            value(T3, "base", "BLEU") - value(T3, "(D) P_drop=0.0", "BLEU"),
        ),
    },
    T4: {},
}
"""Numbers content computes from a table: value -> (what it is, its value from the cells above).
The test checks each against its computation (to the precision it is stated in)."""

OTHER: dict[str, dict[float, str]] = {
    T2: {
        41.0: "the Section 6.1 text's EN-FR BLEU for the big model, quoted beside Table 2's 41.8",
        2.0: "Section 6.1's margin over the best previous EN-DE models: 'more than 2.0 BLEU'",
    },
    T3: {
        27.3: "Table 2's newstest2014 BLEU of the base model, beside Table 3's dev 25.8",
        28.4: "Table 2's newstest2014 BLEU of the big model, beside Table 3's dev 26.4",
    },
    T4: {},
}
"""Numbers that are not table cells but may be stated beside them, each with the reason."""
