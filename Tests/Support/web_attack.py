"""A paired browser meeting another local account's page (headless Chromium, selenium).

    python web_attack.py pair PROFILE PAIRING_LINK     pair this browser (its profile kept in PROFILE)
    python web_attack.py visit PROFILE URL             open URL (an attacker's page) and wait for it to report
    python web_attack.py app PROFILE URL               open our page again: does it still load the alarms?

Prints one JSON object {"ok": bool, "steps": [...]}. The profile folder keeps cookies and the
page's IndexedDB between runs, as a phone's browser does.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main():
    scenario, profile, url = sys.argv[1:4]
    steps = []
    driver = browser(profile)
    try:
        driver.get(url)
        if scenario == "pair":
            driver.find_element(By.CSS_SELECTOR, "#pair button").click()
        if scenario in ("pair", "app"):
            WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#alarms li"))
            steps.append({"step": "alarms", "count": len(driver.find_elements(By.CSS_SELECTOR, "#alarms li"))})
        else:
            WebDriverWait(driver, 30).until(lambda d: d.title == "done")
            steps.append({"step": "visited"})
        print(json.dumps({"ok": True, "steps": steps}))
    except Exception as error:  # the test reads what happened
        print(json.dumps({"ok": False, "steps": steps, "error": repr(error), "address": driver.current_url}))
    finally:
        driver.quit()


main()
