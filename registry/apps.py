from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "registry"
    verbose_name = "Releases and lists"

    def ready(self) -> None:
        from registry import signals
        from registry.core.query_params import one_of, query_shapes_register
        from registry.lists.filters import REPRODUCIBILITY_LEVELS, SORT_FIELDS

        signals.connect()
        # One column, as the list's column headers link to it; several ("o=bw,-md") are answered, not kept.
        query_shapes_register(
            {
                "o": one_of(SORT_FIELDS, negatable=True),
                "reproducibility": one_of(REPRODUCIBILITY_LEVELS),
            }
        )
