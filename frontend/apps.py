from django.apps import AppConfig


class FrontendConfig(AppConfig):
    name = "frontend"
    verbose_name = "Public pages"

    def ready(self) -> None:
        from frontend import invalidation

        invalidation.connect()
