"""``grade similar``: which submissions of a class share more than the exercise explains.

``tokens`` (the normalised token stream), ``winnow`` (fingerprints), ``index`` (pairs scored
through an inverted index), ``evidence`` (the gradebook's second score), ``pseudonyms``,
``report`` (the records), ``pairing`` (``similar``, the entry), and the two writers:
``json_report`` and ``page``.
"""

from .pairing import similar
from .report import NOTICE, SimilarityOptions, SimilarityReport

__all__ = ["NOTICE", "SimilarityOptions", "SimilarityReport", "similar"]
