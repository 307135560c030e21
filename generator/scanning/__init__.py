"""Scanned answer sheets to responses: ``paperdeck scan`` (docs/scanning.md).

``pages`` reads scans one page at a time, ``locate`` finds and straightens a sheet
(QR code, corner marks, homography, the page's own paper), ``bubbles`` measures each
bubble and says filled, empty or doubtful, ``fields`` reads letters, digit grids,
score bubbles and the student ID, ``scan`` joins pages into sheets and flags every
doubt, ``outputs`` writes the responses CSV and the review file.
"""

from __future__ import annotations

from .outputs import Written, write
from .scan import Flag, Scanned, scan

__all__ = ["Flag", "Scanned", "Written", "scan", "write"]
