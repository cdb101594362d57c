#!/usr/bin/python3
"""Django's command line for the reference backend (run it with /usr/bin/python3: Debian's
python3-django, python3-djangorestframework and python3-pil)."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "berries.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
