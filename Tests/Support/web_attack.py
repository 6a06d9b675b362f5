"""A paired browser meeting another local account's page (headless Chromium, selenium).

    python web_attack.py pair PROFILE PAIRING_LINK     pair this browser (its profile kept in PROFILE)
    python web_attack.py visit PROFILE URL             open URL (an attacker's page) and wait for it to report
    python web_attack.py refused PROFILE URL           open URL: the squatter's page must not load (the page our worker
                                                       kept, saying the machine cannot be reached; or Chromium's error page)
    python web_attack.py app PROFILE URL               open our page again: does it still load the alarms?
    python web_attack.py worker PROFILE URL            on our page, register a service worker of another path (as a
                                                       squatter's page would have): the server's answer must remove it

    python web_attack.py installable PROFILE URL NAME  open our page at a name of this machine's (NAME, resolved to
                                                       127.0.0.1 as the LAN would resolve it): a secure context,
                                                       its service worker in control, and Chromium's own
                                                       installability check with nothing to say

With AUTHORITY=FILE in the environment, the browser trusts that certificate authority the way
Chromium on Linux reads one (browser_trust.py). No flag that ignores certificate errors is ever given.

Prints one JSON object {"ok": bool, "steps": [...]}. The profile folder keeps cookies and the
page's IndexedDB between runs, as a phone's browser does.
"""
import json
import sys

from browser_trust import chromium_environment

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile]:
        options.add_argument(flag)
    if len(sys.argv) > 4:  # a name of this machine's, reached on loopback as a phone reaches it on the LAN
        options.add_argument("--host-resolver-rules=MAP %s 127.0.0.1" % sys.argv[4])
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver", env=chromium_environment(profile)), options=options)


# On our page: a worker of another path registered as a squatter's page would have; the server
# answers its script with one that removes itself. The registrations left, once it has acted.
FOREIGN_WORKER = """
const done = arguments[arguments.length - 1];
(async () => {
  await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.register("/foreign-worker.js", { scope: "/" }).catch((error) => null);
  for (let i = 0; i < 100; i++) {
    const scripts = (await navigator.serviceWorker.getRegistrations()).map((r) => (r.active || r.waiting || r.installing || {}).scriptURL || "");
    if (!scripts.some((url) => url.endsWith("/foreign-worker.js"))) { done({ left: scripts }); return; }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  done({ left: (await navigator.serviceWorker.getRegistrations()).map((r) => (r.active || r.waiting || r.installing || {}).scriptURL || "") });
})();
"""


# Resolves with the page's worker's state once one is active ("activated"), as a phone keeps it.
WORKER_ACTIVE = """
const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready.then(async (registration) => {
  const worker = registration.active;
  if (worker.state !== "activated") await new Promise((resolve) => worker.addEventListener("statechange", () => worker.state === "activated" && resolve()));
  done(worker.state);
});
"""


def main():
    scenario, profile, url = sys.argv[1:4]
    steps = []
    driver = browser(profile)
    try:
        try:
            driver.get(url)
        except WebDriverException as error:
            # chromedriver reports a page that did not load (no TLS at all: net::ERR_SSL_PROTOCOL_ERROR) as an error.
            if scenario != "refused" or "ERR_" not in str(error.msg):
                raise
            steps.append({"step": "refused", "error": next((word for word in str(error.msg).split() if "ERR_" in word), "")})
            print(json.dumps({"ok": True, "steps": steps}))
            return
        if scenario == "pair":
            driver.find_element(By.CSS_SELECTOR, "#pair button").click()
        if scenario in ("pair", "app", "worker", "installable"):
            WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#alarms li"))
            steps.append({"step": "alarms", "count": len(driver.find_elements(By.CSS_SELECTOR, "#alarms li"))})
        if scenario == "pair":
            # The page's worker in control before the browser closes, as on a phone that paired:
            # a later visit then goes through it, every time (its install raced the close before).
            driver.set_script_timeout(30)
            steps.append({"step": "worker", "state": driver.execute_async_script(WORKER_ACTIVE)})
        if scenario == "worker":
            driver.set_script_timeout(30)
            left = driver.execute_async_script(FOREIGN_WORKER)["left"]
            steps.append({"step": "workers", "left": left})
            if any(url.endswith("/foreign-worker.js") for url in left):
                raise RuntimeError("the foreign worker stayed: %s" % left)
        elif scenario == "installable":
            WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.body.dataset.worker === 'registered'"))
            driver.set_script_timeout(30)
            controlled = driver.execute_async_script(
                "const done = arguments[0]; navigator.serviceWorker.ready.then((r) => done(r.active && r.active.scriptURL));")
            errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
            steps.append({"step": "installable", "secure": driver.execute_script("return window.isSecureContext"),
                          "worker": controlled, "errors": errors, "address": driver.current_url})
            if errors or not controlled:
                raise RuntimeError("not installable: %s" % errors)
        elif scenario == "refused":
            # The squatter's answer never becomes our page: the page's own worker, unable to reach
            # the machine (a certificate it cannot verify, or no TLS at all), opens the page it
            # kept, which says so; without a worker, Chromium's own error page.
            def refused(d):
                text = d.find_element(By.TAG_NAME, "body").text
                return "ERR_" in text or "cannot be reached" in text
            WebDriverWait(driver, 30).until(refused)
            text = driver.find_element(By.TAG_NAME, "body").text
            steps.append({"step": "refused", "error": next((word for word in text.split() if "ERR_" in word), ""),
                          "keptPage": "cannot be reached" in text})
        elif scenario not in ("pair", "app"):
            WebDriverWait(driver, 30).until(lambda d: d.title == "done")
            steps.append({"step": "visited"})
        print(json.dumps({"ok": True, "steps": steps}))
    except Exception as error:  # the test reads what happened
        print(json.dumps({"ok": False, "steps": steps, "error": repr(error), "address": driver.current_url}))
    finally:
        driver.quit()


main()
