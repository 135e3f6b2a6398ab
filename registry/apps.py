import re

from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "registry"
    verbose_name = "Releases and lists"

    def ready(self) -> None:
        from registry import signals
        from registry.core.query_params import one_of, query_shapes_register
        from registry.lists.filters import REPRODUCIBILITY_LEVELS, SORT_FIELDS
        from registry.lists.formula import CANONICAL_SHAPE

        signals.connect()
        # One column, as the list's column headers link to it; several ("o=bw,-md") are answered, not kept.
        query_shapes_register(
            {
                "o": one_of(SORT_FIELDS, negatable=True),
                "reproducibility": one_of(REPRODUCIBILITY_LEVELS),
                # The characters of a canonical formula; the list views keep an answer only for the one
                # spelling the site's links write (registry.lists.custom, CustomRanking.canonical).
                "formula": re.compile(CANONICAL_SHAPE),
            }
        )
